/* bench_ingest: upload throughput of prophecyd next to the machine's ceiling.
 *
 * Ceiling: the same rows (1 run, 3 inputs, 2 metrics, 10 kernels) inserted
 * straight into SQLite through the same prepared statements, one transaction
 * per run, with the same synchronous setting (FULL), on the same disk, in the
 * same run. Then the real server (build/bin/prophecyd) on a free port:
 * single-run POSTs from 8 keep-alive libcurl clients (throughput, p50/p99
 * latency), batches of 100, and the server's resident memory over 100,000
 * uploads. Usage: bench_ingest [--runs N] [--clients C] [--prophecyd PATH]
 *                     [--db postgresql://...]
 *
 * --db URI runs the server on PostgreSQL instead: a scratch database
 * bench_ingest_server on URI's server (URI names a database to connect to
 * for creating it, e.g. postgresql:///postgres), and next to it
 * PostgreSQL's own ceiling for the same rows through libpq in scratch
 * database bench_ingest_ceiling (bench/lib/benchpg.h): one transaction per
 * run statement by statement, one per run pipelined, and 100 runs per
 * transaction pipelined.
 *
 * --watches N instead measures what regression detection adds to single-run
 * ingest (issue 14): the same runs stored one per transaction through
 * core/ingest (ingest_commit, the stored hook installed; sync=NORMAL, so
 * that fsync does not dilute the figure), first
 * with no watch, then with N statistical watches that all cover every run
 * (the worst case: each judges it against its configuration's window),
 * alternating rounds and quoting medians.
 */
#include "bench/lib/benchpg.h"
#include "common/arena.h"
#include "db/db.h"
#include "db/runs.h"
#include "core/ingest.h"
#include "core/watch.h"
#include "db/history.h"
#include "formats/limits.h"
#include <jansson.h>

#include <curl/curl.h>
#include <errno.h>
#include <pthread.h>
#include <signal.h>
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
    in[0] = (struct rec_kv){"N", (double)(i % 1000)};
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

/* Raw SQLite: one transaction per run, synchronous = FULL. */
static double ceiling(const char *dir, long n)
{
    char path[512];
    struct err e = {0};
    struct db_options opt = {DB_SYNC_FULL, 0, 10000};
    db *d;
    double t0, t;
    long i;

    snprintf(path, sizeof path, "%s/ceiling.db", dir);
    if (db_open(&d, path, &opt, &e) != 0) {
        fprintf(stderr, "ceiling: %s\n", e.message);
        exit(1);
    }
    t0 = now();
    for (i = 0; i < n; i++) {
        struct run_record r;
        struct rec_kernel k[10];
        struct rec_kv in[3], m[2];
        char uid[32];
        long long id;
        int existed;
        fill_run(&r, k, in, m, uid, sizeof uid, i);
        if (db_begin(d, &e) != 0 || db_runs_insert(d, &r, 1, &id, &existed, &e) != 0 ||
            db_commit(d, &e) != 0) {
            fprintf(stderr, "ceiling: %s\n", e.message);
            exit(1);
        }
    }
    t = now() - t0;
    db_close(d);
    return (double)n / t;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double cpu_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* CPU seconds of the last ingest_round. */
static double round_cpu;

/* Seconds for n single-run ingest_commit calls, runs numbered from first. */
static double ingest_round(db *d, long first, long n)
{
    struct err e = {0};
    double t0 = now(), c0 = cpu_now();
    long i;
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
    return now() - t0;
}

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

static int watch_overhead(const char *dir, long n, int nwatches)
{
    char path[512];
    struct err e = {0};
    struct db_options opt = {DB_SYNC_NORMAL, 0, 10000};
    double t[3][5], c[3][5], med[3], cmed[3];
    long long ids[LIMIT_WATCHES];
    long next = 1000;
    db *d;
    int round, mode, j;

    if (nwatches > LIMIT_WATCHES)
        nwatches = LIMIT_WATCHES;
    snprintf(path, sizeof path, "%s/watches.db", dir);
    if (db_open(&d, path, &opt, &e) != 0) {
        fprintf(stderr, "watches: %s\n", e.message);
        return 1;
    }
    watch_install();
    ingest_round(d, 0, next); /* history for the windows, warm caches */
    /* Alternating rounds: none, N watches of one processor count each, N
     * watches all covering every run. */
    for (round = 0; round < 5; round++)
        for (mode = 0; mode < 3; mode++) {
            if (mode > 0 && set_watches(d, nwatches, mode == 1, ids) != 0)
                return 1;
            t[mode][round] = ingest_round(d, next, n) / (double)n;
            c[mode][round] = round_cpu / (double)n;
            next += n;
            if (mode == 0)
                continue;
            if (db_begin(d, &e) != 0)
                return 1;
            for (j = 0; j < nwatches; j++)
                if (db_watch_delete(d, ids[j], &e) != 0) {
                    fprintf(stderr, "watches: %s\n", e.message);
                    return 1;
                }
            if (db_commit(d, &e) != 0)
                return 1;
        }
    db_close(d);
    for (mode = 0; mode < 3; mode++) {
        qsort(t[mode], 5, sizeof t[mode][0], cmp_double);
        med[mode] = t[mode][2];
        qsort(c[mode], 5, sizeof c[mode][0], cmp_double);
        cmed[mode] = c[mode][2];
    }
    printf(
        "single-run ingest (ingest_commit, sync=NORMAL), median of 5 alternating rounds "
        "of %ld runs:\n",
        n);
    printf("  (wall time; CPU time of this process in brackets: the disk's share is "
           "the rest)\n");
    printf("  no watch:                                %8.1f us/run [%6.1f]\n",
           med[0] * 1e6, cmed[0] * 1e6);
    printf(
        "  %4d watches, one processor count each:  %8.1f us/run [%6.1f] (%+.1f %% wall, "
        "%+.1f %% CPU; target <= +10 %%)\n",
        nwatches, med[1] * 1e6, cmed[1] * 1e6, (med[1] - med[0]) / med[0] * 100,
        (cmed[1] - cmed[0]) / cmed[0] * 100);
    printf(
        "  %4d watches all covering every run:     %8.1f us/run [%6.1f] (%+.1f %% wall, "
        "%+.1f %% CPU; worst case)\n",
        nwatches, med[2] * 1e6, cmed[2] * 1e6, (med[2] - med[0]) / med[0] * 100,
        (cmed[2] - cmed[0]) / cmed[0] * 100);
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
                                    n % 1000, 1.0 + (double)(n % 100) * 0.01);
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

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Runs nclients x per uploads; returns runs/s and fills p50/p99 (ms). */
static double load(const char *url, const char *auth, const char *tag, long first,
                   int nclients, long per, long batch, double *p50, double *p99,
                   long *failures)
{
    struct client *c = calloc((size_t)nclients, sizeof *c);
    long nreq = per / batch, total = 0, i;
    double *all = malloc(sizeof(double) * (size_t)(nreq * nclients)), t0, t;
    int w;

    t0 = now();
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
    *failures = 0;
    for (w = 0; w < nclients; w++) {
        pthread_join(c[w].th, NULL);
        *failures += c[w].failures;
        total += per;
    }
    t = now() - t0;
    qsort(all, (size_t)(nreq * nclients), sizeof *all, cmp);
    i = nreq * nclients;
    *p50 = all[i / 2] * 1e3;
    *p99 = all[(long)((double)i * 0.99)] * 1e3;
    free(all);
    free(c);
    return (double)total / t;
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

/* PostgreSQL's ceilings (--db): the same rows through libpq, three ways. */
static const char *const pg_label[3] = {
    "ceiling: libpq, 1 txn/run, statement by statement",
    "ceiling: libpq, 1 txn/run, pipelined", "ceiling: libpq, 100 runs/txn, pipelined"};
static double pg_rate[3];

static void pg_ceilings(const char *base, long n)
{
    static const enum benchpg_mode mode[3] = {BENCHPG_TXN_PER_RUN, BENCHPG_PIPELINED,
                                              BENCHPG_BATCHED};
    char uri[1024];
    benchpg_database(base, "bench_ingest_ceiling", uri, sizeof uri);
    for (int i = 0; i < 3; i++)
        pg_rate[i] =
            benchpg_ceiling(uri, (long)i * n * 10, i == 2 ? n * 4 : n, mode[i], 100);
    benchpg_drop(base, "bench_ingest_ceiling");
}

int main(int argc, char **argv)
{
    const char *prophecyd = NULL, *pg = NULL;
    char dir[] = "/tmp/prophecy-bench-XXXXXX", dbpath[600], cmd[1400], token[128],
         auth[200], url[128], exe[512];
    long runs = 20000, mem_runs = 100000, failures;
    int clients = 8, port, i, watches = -1;
    double ceil_rate, rate, brate, p50, p99, bp50, bp99;
    pid_t pid;
    FILE *p;

    for (i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--runs") == 0 && i + 1 < argc)
            runs = strtol(argv[++i], NULL, 10);
        else if (strcmp(argv[i], "--clients") == 0 && i + 1 < argc)
            clients = (int)strtol(argv[++i], NULL, 10);
        else if (strcmp(argv[i], "--prophecyd") == 0 && i + 1 < argc)
            prophecyd = argv[++i];
        else if (strcmp(argv[i], "--mem-runs") == 0 && i + 1 < argc)
            mem_runs = strtol(argv[++i], NULL, 10);
        else if (strcmp(argv[i], "--watches") == 0 && i + 1 < argc)
            watches = (int)strtol(argv[++i], NULL, 10);
        else if (strcmp(argv[i], "--db") == 0 && i + 1 < argc)
            pg = argv[++i];
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
    if (watches >= 0) {
        int rc = watch_overhead(dir, runs < 5000 ? runs : 500, watches);
        snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
        if (system(cmd) != 0)
            fprintf(stderr, "could not remove %s\n", dir);
        return rc;
    }
    curl_global_init(CURL_GLOBAL_ALL);
    printf("bench_ingest: %ld single-run uploads from %d keep-alive clients, then "
           "batches of "
           "100\n",
           runs, clients);
    if (pg != NULL) {
        pg_ceilings(pg, runs / 4);
        benchpg_database(pg, "bench_ingest_server", dbpath, sizeof dbpath);
        ceil_rate = 0;
    } else {
        ceil_rate = ceiling(dir, runs / 4);
        snprintf(dbpath, sizeof dbpath, "%s/server.db", dir);
        /* token create refuses a missing database: create the new one on purpose. */
        p = fopen(dbpath, "a");
        if (p != NULL)
            fclose(p);
    }
    port = 20000 + (int)(getpid() % 20000);
    snprintf(cmd, sizeof cmd, "%s token create bench --db '%s'", prophecyd, dbpath);
    p = popen(cmd, "r");
    if (p == NULL || fgets(token, sizeof token, p) == NULL) {
        fprintf(stderr, "cannot create a token with %s\n", prophecyd);
        return 1;
    }
    pclose(p);
    token[strcspn(token, "\n")] = '\0';
    snprintf(auth, sizeof auth, "Authorization: Bearer %s", token);
    pid = fork();
    if (pid == 0) {
        char listen[64];
        snprintf(listen, sizeof listen, "127.0.0.1:%d", port);
        execl(prophecyd, "prophecyd", "serve", "--db", dbpath, "--listen", listen,
              "--quiet", (char *)NULL);
        _exit(127);
    }
    usleep(500000);
    snprintf(url, sizeof url, "http://127.0.0.1:%d/api/v1/runs", port);

    rate =
        load(url, auth, "single", 0, clients, runs / clients, 1, &p50, &p99, &failures);
    if (failures)
        printf("  !! %ld failed single uploads\n", failures);
    brate = load(url, auth, "batch", 10000000, clients, runs / clients * 2, 100, &bp50,
                 &bp99, &failures);
    if (failures)
        printf("  !! %ld failed batch uploads\n", failures);

    printf("\n%-48s %12s %10s %10s\n", "", "runs/s", "p50 ms", "p99 ms");
    if (pg != NULL)
        for (i = 0; i < 3; i++)
            printf("%-48s %12.0f %10s %10s\n", pg_label[i], pg_rate[i], "-", "-");
    else
        printf("%-48s %12.0f %10s %10s\n", "ceiling: raw SQLite, 1 txn/run, sync=FULL",
               ceil_rate, "-", "-");
    if (pg != NULL)
        ceil_rate = pg_rate[0];
    printf("%-48s %12.0f %10.2f %10.2f\n", "prophecyd: single-run POSTs, 8 clients", rate,
           p50, p99);
    printf("%-48s %12.0f %10.2f %10.2f\n", "prophecyd: batches of 100, 8 clients", brate,
           bp50, bp99);
    printf("\nsingle-run POSTs / ceiling = %.2fx (target >= 1.0x); p99 %.2f ms (target "
           "<= 20 "
           "ms)\n",
           rate / ceil_rate, p99);

    /* Memory over a long stream of uploads: resident size every 25,000. */
    {
        long done = 0, before = rss_kb(pid);
        printf("\nserver RSS over %ld uploads (kB): %ld", mem_runs, before);
        while (done < mem_runs) {
            long chunk = mem_runs - done < 25000 ? mem_runs - done : 25000;
            load(url, auth, "mem", 20000000 + done, clients, chunk / clients, 1, &p50,
                 &p99, &failures);
            done += chunk / clients * clients;
            printf(" %ld", rss_kb(pid));
            fflush(stdout);
        }
        printf("\n");
    }
    kill(pid, SIGTERM);
    waitpid(pid, NULL, 0);
    if (pg != NULL) {
        printf("PostgreSQL database size: %.0f bytes per run stored\n",
               (double)benchpg_scalar(dbpath,
                                      "SELECT pg_database_size(current_database())") /
                   (double)benchpg_scalar(dbpath, "SELECT count(*) FROM runs"));
        benchpg_drop(pg, "bench_ingest_server");
    }
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    if (system(cmd) != 0)
        fprintf(stderr, "could not remove %s\n", dir);
    curl_global_cleanup();
    return 0;
}
